"cs1" & "cs2"
