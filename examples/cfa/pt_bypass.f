AG ("proc1.wait" -> AF "cs1")
