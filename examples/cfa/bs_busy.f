G F "busy"
