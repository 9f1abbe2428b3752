G !("cs1" & "cs2")
