"ch" + "next" >= 5
