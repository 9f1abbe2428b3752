/* libxml2's error messages as mck prints them.  Most read well as they
 * are; the one for elements nested past the library's limit tells the
 * user to set a parser option, which mck's user cannot do. */
#ifndef MCK_XMLTEXT_H
#define MCK_XMLTEXT_H

/* The message to print for libxml2's message msg: msg itself, or mck's
 * words for it in buf (len bytes). */
const char *xml_error_text(const char *msg, char *buf, unsigned long len);

#endif
