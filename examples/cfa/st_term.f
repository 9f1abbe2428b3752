F "popper.done"
