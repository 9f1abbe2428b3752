AG ("pusher.done" -> AF "popper.done")
