#include "quire_word_breaks.h"
#include <dlfcn.h>
#include <pthread.h>
#include <unicode/ubrk.h>
#include <unicode/uvernum.h>

/* libicuuc is opened on the first text that needs dictionary word breaks (Thai, Lao, Khmer,
   Burmese), not linked: loading it and libstdc++ cost every command about a millisecond at start.
   ICU's names carry its version (ubrk_open is a macro for ubrk_open_72), hence the two-step
   stringification. Without the library, quire_word_breaks returns -1, as for any ICU failure. */
#define QUIRE_STRING2(name) #name
#define QUIRE_STRING(name) QUIRE_STRING2(name)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static __typeof__(&ubrk_open) open_iterator;
static __typeof__(&ubrk_first) first_boundary;
static __typeof__(&ubrk_next) next_boundary;
static __typeof__(&ubrk_getRuleStatus) rule_status;
static __typeof__(&ubrk_close) close_iterator;
static int loaded;

static void load(void) {
    void *library = dlopen("libicuuc.so." U_ICU_VERSION_SHORT, RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) return;
    open_iterator = (__typeof__(open_iterator))dlsym(library, QUIRE_STRING(ubrk_open));
    first_boundary = (__typeof__(first_boundary))dlsym(library, QUIRE_STRING(ubrk_first));
    next_boundary = (__typeof__(next_boundary))dlsym(library, QUIRE_STRING(ubrk_next));
    rule_status = (__typeof__(rule_status))dlsym(library, QUIRE_STRING(ubrk_getRuleStatus));
    close_iterator = (__typeof__(close_iterator))dlsym(library, QUIRE_STRING(ubrk_close));
    loaded = open_iterator && first_boundary && next_boundary && rule_status && close_iterator;
}

int32_t quire_word_breaks(const uint16_t *text, int32_t length, int32_t *bounds, int32_t capacity) {
    pthread_once(&once, load);
    if (!loaded) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *iterator = open_iterator(UBRK_WORD, "", (const UChar *)text, length, &status);
    if (iterator == NULL || U_FAILURE(status)) {
        if (iterator != NULL) close_iterator(iterator);
        return -1;
    }
    int32_t count = 0;
    int32_t previous = first_boundary(iterator);
    for (int32_t boundary = next_boundary(iterator); boundary != UBRK_DONE; boundary = next_boundary(iterator)) {
        if (rule_status(iterator) >= UBRK_WORD_NONE_LIMIT) {
            if (count < capacity) {
                bounds[2 * count] = previous;
                bounds[2 * count + 1] = boundary;
            }
            count += 1;
        }
        previous = boundary;
    }
    close_iterator(iterator);
    return count;
}
