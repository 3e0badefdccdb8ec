/*
 * md4c-driver: times md4c (Debian's libmd4c / libmd4c-html) on a file, the
 * peer for tidemark-bench's in-process numbers.
 *
 *   md4c-driver parse|html FILE [--iterations N] [--warmup N]
 *               [--dialect gfm|commonmark] [--emit] [--quiet] [--tsv]
 *
 *   parse   md_parse() with callbacks that do nothing (parser only)
 *   html    md_html() into a growing memory buffer (parser + renderer)
 *   --emit  write the HTML of the last iteration to standard output
 *
 * Statistics go to standard error, in the same shape as tidemark-bench's.
 * Built by Benchmarks/run.sh:
 *   cc -O2 -o md4c-driver md4c-driver.c -lmd4c-html -lmd4c
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <md4c-html.h>
#include <md4c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    char *data;
    size_t size;
    size_t capacity;
} buffer;

static void buffer_append(buffer *b, const char *bytes, size_t n) {
    if (b->size + n > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 1 << 16;
        while (capacity < b->size + n) capacity *= 2;
        char *data = realloc(b->data, capacity);
        if (!data) {
            fprintf(stderr, "md4c-driver: out of memory\n");
            exit(1);
        }
        b->data = data;
        b->capacity = capacity;
    }
    memcpy(b->data + b->size, bytes, n);
    b->size += n;
}

static void on_output(const MD_CHAR *text, MD_SIZE size, void *userdata) {
    buffer_append((buffer *)userdata, text, size);
}

/* Parser-only callbacks: count events so the work stays observable. */
static int on_block(MD_BLOCKTYPE type, void *detail, void *userdata) {
    (void)type;
    (void)detail;
    ++*(unsigned long *)userdata;
    return 0;
}
static int on_span(MD_SPANTYPE type, void *detail, void *userdata) {
    (void)type;
    (void)detail;
    ++*(unsigned long *)userdata;
    return 0;
}
static int on_text(MD_TEXTTYPE type, const MD_CHAR *text, MD_SIZE size, void *userdata) {
    (void)type;
    (void)text;
    (void)size;
    ++*(unsigned long *)userdata;
    return 0;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long peak_rss_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kib = strtol(line + 6, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kib;
}

static buffer read_file(const char *path) {
    buffer b = {0};
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    char chunk[1 << 16];
    size_t n;
    if (!f) {
        fprintf(stderr, "md4c-driver: cannot read '%s': %s\n", path, strerror(errno));
        exit(2);
    }
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buffer_append(&b, chunk, n);
    if (f != stdin) fclose(f);
    return b;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void usage(void) {
    fprintf(stderr,
            "usage: md4c-driver parse|html FILE [--iterations N] [--warmup N]\n"
            "                   [--dialect gfm|commonmark] [--emit] [--quiet] [--tsv]\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *mode, *path = NULL, *dialect_name = "gfm";
    unsigned flags = MD_DIALECT_GITHUB;
    long iterations = 10, warmup = 1;
    int emit = 0, quiet = 0, tsv = 0, html;
    int i;

    if (argc < 3) usage();
    mode = argv[1];
    if (strcmp(mode, "parse") == 0) html = 0;
    else if (strcmp(mode, "html") == 0) html = 1;
    else usage();
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
            iterations = strtol(argv[++i], NULL, 10);
            if (iterations < 1) iterations = 1;
        } else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc) {
            warmup = strtol(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--dialect") == 0 && i + 1 < argc) {
            dialect_name = argv[++i];
            if (strcmp(dialect_name, "gfm") == 0) flags = MD_DIALECT_GITHUB;
            else if (strcmp(dialect_name, "commonmark") == 0) flags = MD_DIALECT_COMMONMARK;
            else usage();
        } else if (strcmp(argv[i], "--emit") == 0) {
            emit = 1;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(argv[i], "--tsv") == 0) {
            tsv = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            usage();
        } else {
            path = argv[i];
        }
    }
    if (!path) usage();

    buffer input = read_file(path);
    buffer out = {0};
    unsigned long events = 0;
    MD_PARSER parser;
    memset(&parser, 0, sizeof parser);
    parser.flags = flags;
    parser.enter_block = on_block;
    parser.leave_block = on_block;
    parser.enter_span = on_span;
    parser.leave_span = on_span;
    parser.text = on_text;

    double *times = calloc((size_t)iterations, sizeof(double));
    for (long k = -warmup; k < iterations; k++) {
        double start = now();
        int rc;
        out.size = 0;
        if (html) rc = md_html(input.data, (MD_SIZE)input.size, on_output, &out, flags, 0);
        else rc = md_parse(input.data, (MD_SIZE)input.size, &parser, &events);
        double elapsed = now() - start;
        if (rc != 0) {
            fprintf(stderr, "md4c-driver: md4c failed on '%s'\n", path);
            return 1;
        }
        if (k >= 0) times[k] = elapsed;
    }
    if (emit && html) fwrite(out.data, 1, out.size, stdout);
    fflush(stdout);

    qsort(times, (size_t)iterations, sizeof(double), compare_doubles);
    double minimum = times[0];
    double median = iterations % 2 ? times[iterations / 2] : (times[iterations / 2 - 1] + times[iterations / 2]) / 2;
    double mean = 0;
    for (long k = 0; k < iterations; k++) mean += times[k];
    mean /= (double)iterations;
    double megabytes = (double)input.size / 1e6;
    if (!quiet) {
        if (tsv)
            fprintf(stderr, "%s\t%s\t%s\t%zu\t%ld\t%.6f\t%.6f\t%.6f\t%.2f\t%lu\t%ld\n", mode, dialect_name, path,
                    input.size, iterations, minimum, median, mean, megabytes / median, html ? out.size : events,
                    peak_rss_kib());
        else
            fprintf(stderr,
                    "%s [%s] %s: %zu bytes, %ld iterations\n"
                    "  time/iteration: min %.3f ms, median %.3f ms, mean %.3f ms\n"
                    "  throughput:     %.2f MB/s (median), %.2f MB/s (best)\n"
                    "  peak RSS:       %ld KiB (process so far)\n",
                    mode, dialect_name, path, input.size, iterations, minimum * 1e3, median * 1e3, mean * 1e3,
                    megabytes / median, megabytes / minimum, peak_rss_kib());
    }
    free(times);
    free(out.data);
    free(input.data);
    return 0;
}
