"proc1.crit" & "proc2.crit"
