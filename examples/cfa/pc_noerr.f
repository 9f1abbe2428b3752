G ! "error"
