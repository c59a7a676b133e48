/*
 * The floor of a cold rebuild: the least work any positional index of a vault's notes takes,
 * written as plainly fast as C allows, to compare `quire index --rebuild` and `rg -c .` with
 * (Benchmarks/rebuild-cpu.sh runs it in each turn; Docs/benchmarks.md has the figures).
 *
 *   floor DIR [THREADS] [--read-only]
 *
 * It lists the `.md` files under DIR (skipping dot folders), then THREADS threads (2 by default)
 * take the files one at a time: open, read whole, close; split the bytes into words (runs of
 * ASCII letters and digits and of non-ASCII bytes), lowercase the ASCII, give each word an id
 * from the thread's own hash table, and keep the ids in document order. At the end each thread
 * inverts its ids into per-term (document, position) pairs, the postings. Nothing is written.
 *
 * It leaves out everything else a notes index needs: front matter (libyaml), Unicode folding,
 * fields, links, word counts, records, one dictionary for all threads, an index file, its
 * checksums. So quire's rebuild cannot take less than this; `--read-only` reads the files and
 * counts their lines, which is what `rg -c .` does.
 *
 * A benchmark only: it is not part of the product and nothing links it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char **paths;
static size_t path_count, path_capacity;
static atomic_size_t next_path;
static int read_only;

static void *grow_array(void *array, size_t *capacity, size_t needed, size_t element) {
    if (needed <= *capacity) return array;
    size_t larger = *capacity ? *capacity : 1024;
    while (larger < needed) larger *= 2;
    void *moved = realloc(array, larger * element);
    if (!moved) { perror("floor"); exit(1); }
    *capacity = larger;
    return moved;
}

static void walk(const char *folder) {
    DIR *directory = opendir(folder);
    if (!directory) return;
    struct dirent *entry;
    char path[4096];
    while ((entry = readdir(directory))) {
        if (entry->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", folder, entry->d_name);
        size_t length = strlen(entry->d_name);
        if (entry->d_type == DT_DIR) {
            walk(path);
        } else if (entry->d_type == DT_REG && length > 3 && strcmp(entry->d_name + length - 3, ".md") == 0) {
            paths = grow_array(paths, &path_capacity, path_count + 1, sizeof *paths);
            paths[path_count++] = strdup(path);
        }
    }
    closedir(directory);
}

/* One slot of a thread's term table: the word's first eight bytes, 32 bits of its hash, id + 1. */
typedef struct { uint64_t head; uint32_t hash, id; } slot_t;

typedef struct {
    slot_t *slots;
    size_t mask;
    uint32_t terms;
    char *text;                     /* every term's bytes, one after another */
    size_t text_count, text_capacity;
    uint32_t *ends;                 /* where each term's bytes end in `text` (ends[-1] = 0) */
    size_t ends_capacity;
    uint32_t *ids;                  /* the documents' term ids in order */
    size_t id_count, id_capacity;
    uint32_t *starts;               /* each document's first id */
    size_t documents, starts_capacity;
    uint64_t postings;
} worker_t;

static inline uint64_t hash_word(const unsigned char *bytes, size_t count) {
    uint64_t hash = count * 0x9E3779B97F4A7C15ull, chunk;
    for (; count >= 8; bytes += 8, count -= 8) {
        memcpy(&chunk, bytes, 8);
        hash = (hash ^ chunk) * 0xBF58476D1CE4E5B9ull;
        hash ^= hash >> 31;
    }
    chunk = 0;
    memcpy(&chunk, bytes, count);
    hash = (hash ^ chunk) * 0x94D049BB133111EBull;
    return hash ^ (hash >> 29);
}

static uint32_t term_start(const worker_t *worker, uint32_t id) { return id ? worker->ends[id - 1] : 0; }

static void grow_slots(worker_t *worker) {
    size_t count = (worker->mask + 1) * 2;
    slot_t *larger = calloc(count, sizeof *larger);
    if (!larger) { perror("floor"); exit(1); }
    for (size_t old = 0; old <= worker->mask; old++) {
        if (!worker->slots[old].id) continue;
        const unsigned char *term = (const unsigned char *)worker->text + term_start(worker, worker->slots[old].id - 1);
        size_t slot = hash_word(term, worker->ends[worker->slots[old].id - 1] - term_start(worker, worker->slots[old].id - 1))
                      & (count - 1);
        while (larger[slot].id) slot = (slot + 1) & (count - 1);
        larger[slot] = worker->slots[old];
    }
    free(worker->slots);
    worker->slots = larger;
    worker->mask = count - 1;
}

static inline uint32_t term_id(worker_t *worker, const unsigned char *word, size_t count) {
    uint64_t hash = hash_word(word, count), head = 0;
    memcpy(&head, word, count < 8 ? count : 8);
    size_t slot = hash & worker->mask;
    for (;; slot = (slot + 1) & worker->mask) {
        const slot_t *entry = &worker->slots[slot];
        if (!entry->id) break;
        if (entry->hash != (uint32_t)hash || entry->head != head) continue;
        uint32_t id = entry->id - 1, start = term_start(worker, id);
        if (worker->ends[id] - start == count && (count <= 8 || memcmp(worker->text + start, word, count) == 0)) return id;
    }
    uint32_t id = worker->terms++;
    worker->text = grow_array(worker->text, &worker->text_capacity, worker->text_count + count, 1);
    memcpy(worker->text + worker->text_count, word, count);
    worker->text_count += count;
    worker->ends = grow_array(worker->ends, &worker->ends_capacity, id + 1, sizeof *worker->ends);
    worker->ends[id] = (uint32_t)worker->text_count;
    worker->slots[slot] = (slot_t){head, (uint32_t)hash, id + 1};
    if ((size_t)worker->terms * 4 > (worker->mask + 1) * 3) grow_slots(worker);
    return id;
}

static void *run(void *argument) {
    worker_t *worker = argument;
    worker->mask = 4095;
    worker->slots = calloc(worker->mask + 1, sizeof(slot_t));
    size_t capacity = 1 << 16;
    unsigned char *buffer = malloc(capacity), word[256];
    if (!worker->slots || !buffer) { perror("floor"); exit(1); }
    for (;;) {
        size_t index = atomic_fetch_add(&next_path, 1);
        if (index >= path_count) break;
        int descriptor = open(paths[index], O_RDONLY | O_CLOEXEC);
        if (descriptor < 0) continue;
        struct stat status;
        if (fstat(descriptor, &status) == 0 && (size_t)status.st_size + 1 > capacity) {
            capacity = (size_t)status.st_size + 1;
            buffer = realloc(buffer, capacity);
            if (!buffer) { perror("floor"); exit(1); }
        }
        size_t length = 0;
        ssize_t got;
        while (length < capacity && (got = read(descriptor, buffer + length, capacity - length)) > 0) length += (size_t)got;
        close(descriptor);
        if (read_only) {
            size_t lines = 0;
            for (size_t at = 0; at < length; at++) lines += buffer[at] == '\n';
            worker->postings += lines;
            continue;
        }
        worker->starts = grow_array(worker->starts, &worker->starts_capacity, worker->documents + 1, sizeof *worker->starts);
        worker->starts[worker->documents++] = (uint32_t)worker->id_count;
        worker->ids = grow_array(worker->ids, &worker->id_capacity, worker->id_count + length / 2 + 1, sizeof *worker->ids);
        size_t word_length = 0;
        for (size_t at = 0; at <= length; at++) {
            unsigned char byte = at < length ? buffer[at] : ' ';
            unsigned char lower = byte | 0x20;
            if ((byte >= '0' && byte <= '9') || (lower >= 'a' && lower <= 'z') || byte >= 0x80) {
                if (word_length < sizeof word) word[word_length++] = byte >= 0x80 ? byte : ((byte >= 'A' && byte <= 'Z') ? lower : byte);
            } else if (word_length) {
                worker->ids[worker->id_count++] = term_id(worker, word, word_length);
                word_length = 0;
            }
        }
    }
    free(buffer);
    if (read_only) return NULL;
    /* Invert: each term's (document, position) pairs, in document order. */
    uint32_t *next = calloc((size_t)worker->terms + 1, sizeof *next);
    uint64_t *postings = malloc((worker->id_count + 1) * sizeof *postings);
    if (!next || !postings) { perror("floor"); exit(1); }
    for (size_t at = 0; at < worker->id_count; at++) next[worker->ids[at] + 1]++;
    for (uint32_t term = 0; term < worker->terms; term++) next[term + 1] += next[term];
    for (size_t document = 0; document < worker->documents; document++) {
        size_t first = worker->starts[document];
        size_t end = document + 1 < worker->documents ? worker->starts[document + 1] : worker->id_count;
        for (size_t at = first; at < end; at++) postings[next[worker->ids[at]]++] = (uint64_t)document << 32 | (at - first);
    }
    worker->postings = worker->id_count;
    free(postings);
    free(next);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: floor DIR [THREADS] [--read-only]\n"); return 2; }
    int threads = argc > 2 ? atoi(argv[2]) : 2;
    if (threads < 1 || threads > 64) threads = 2;
    read_only = argc > 3 && strcmp(argv[3], "--read-only") == 0;
    walk(argv[1]);
    pthread_t handles[64];
    worker_t *workers = calloc((size_t)threads, sizeof *workers);
    if (!workers) { perror("floor"); return 1; }
    for (int thread = 0; thread < threads; thread++) pthread_create(&handles[thread], NULL, run, &workers[thread]);
    uint64_t postings = 0, terms = 0;
    for (int thread = 0; thread < threads; thread++) {
        pthread_join(handles[thread], NULL);
        postings += workers[thread].postings;
        terms += workers[thread].terms;
    }
    if (read_only) printf("%zu files, %llu lines\n", path_count, (unsigned long long)postings);
    else printf("%zu files, %llu tokens, %llu terms (the threads' tables summed)\n", path_count,
                (unsigned long long)postings, (unsigned long long)terms);
    return 0;
}
