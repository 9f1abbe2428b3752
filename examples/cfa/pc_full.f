"ch.full"
