F deadlock
