"proc1.wait" & "proc2.wait"
