"popper.done" & "a=1"
