"error"
