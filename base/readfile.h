/* Reading a whole input file into memory, with the messages every reader
 * gives for it.  Readers that scan bytes (flex, libxml2) want the text in
 * one piece; a clean "cannot open" beats a parser's confusion. */
#ifndef MCK_READFILE_H
#define MCK_READFILE_H

#include <stddef.h>

/* The file's bytes, NUL-terminated (the text itself may hold NULs: *len
 * counts every byte).  NULL after "PATH: cannot open: ..." or
 * "PATH: cannot read: ..." (also when the file exceeds max_bytes). */
char *read_file(const char *path, size_t max_bytes, size_t *len);

/* The name a model read from path is known by: the file name without its
 * folders and its last suffix ("dir/elevator.ll_net" -> "elevator").
 * malloc'd; NULL on no memory. */
char *path_stem(const char *path);

#endif
