G F "cs1"
