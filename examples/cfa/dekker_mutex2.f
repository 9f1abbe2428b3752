#define CS1 "cs1"
#define CS2 "cs2"
CS1 && CS2
