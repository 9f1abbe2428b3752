AG EF ("proc1.idle" & "proc2.idle")
