#ifndef QUIRE_WORD_BREAKS_H
#define QUIRE_WORD_BREAKS_H
#include <stdint.h>

/* ICU's word-break iterator behind plain C types. ICU's own headers are not exposed: Swift's
   Foundation carries a private copy of ICU whose C types clash with the system's in one Swift
   module. Only QuireSearch's tokenizer uses this. */

/* Finds the words of `text` (UTF-16, `length` units): writes the start and end unit offset of
   each word (letters or numbers; not spaces or punctuation) to `bounds` as pairs, at most
   `capacity` pairs, and returns how many pairs it found (more than `capacity` when `bounds` was
   too small), or -1 when ICU failed or libicuuc could not be opened (it is opened on the first
   call, not linked). Allocates nothing that outlives the call. */
int32_t quire_word_breaks(const uint16_t *text, int32_t length, int32_t *bounds, int32_t capacity);

#endif
