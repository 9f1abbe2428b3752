"popper.done" & "a=2" & "b=1"
