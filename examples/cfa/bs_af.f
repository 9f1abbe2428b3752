AF deadlock
