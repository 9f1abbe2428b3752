G ("proc1.set" -> F "proc1.crit")
