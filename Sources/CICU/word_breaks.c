#include "quire_word_breaks.h"
#include <unicode/ubrk.h>

int32_t quire_word_breaks(const uint16_t *text, int32_t length, int32_t *bounds, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *iterator = ubrk_open(UBRK_WORD, "", (const UChar *)text, length, &status);
    if (iterator == NULL || U_FAILURE(status)) {
        if (iterator != NULL) ubrk_close(iterator);
        return -1;
    }
    int32_t count = 0;
    int32_t previous = ubrk_first(iterator);
    for (int32_t boundary = ubrk_next(iterator); boundary != UBRK_DONE; boundary = ubrk_next(iterator)) {
        if (ubrk_getRuleStatus(iterator) >= UBRK_WORD_NONE_LIMIT) {
            if (count < capacity) {
                bounds[2 * count] = previous;
                bounds[2 * count + 1] = boundary;
            }
            count += 1;
        }
        previous = boundary;
    }
    ubrk_close(iterator);
    return count;
}
