G F "pusher.p0"
