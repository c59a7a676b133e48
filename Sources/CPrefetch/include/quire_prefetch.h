#ifndef QUIRE_PREFETCH_H
#define QUIRE_PREFETCH_H

/// Asks the processor to bring the cache line at `address` in for writing, without waiting for
/// it (a load would hold up the instructions after it once the reorder window fills): what a
/// rebuild does with each term's slot of its term table as the term is read, so that the slot
/// is there when the batch is looked up. Never faults, whatever the address.
static inline void quire_prefetch(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
