"undoer.hold" & "back = 1" & "done.top = 2"
