G ("proc1.want" -> F "proc1.crit")
