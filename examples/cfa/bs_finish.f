"finished" & !deadlock
