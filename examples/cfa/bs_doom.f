AG EF deadlock
