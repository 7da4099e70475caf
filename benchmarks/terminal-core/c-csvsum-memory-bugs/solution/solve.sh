#!/bin/bash
cd /app/csvsum
cat > csvsum.c <<'C'
/* csvsum: sum the amounts per name in a "name,amount" CSV file.
 *
 * usage: csvsum FILE
 * Prints one line "<name> <total>" per distinct name, sorted by name (strcmp order), with the
 * total printed with two decimals. Blank lines are ignored; lines without a comma are skipped
 * and counted, and "skipped N" is printed to stderr at the end.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
    char *name;
    double total;
};

static struct entry *table;
static size_t n_entries, cap;

static struct entry *lookup(const char *name)
{
    for (size_t i = 0; i < n_entries; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    if (n_entries == cap) {
        cap = cap ? cap * 2 : 64;
        table = realloc(table, cap * sizeof *table);
        if (!table) { perror("realloc"); exit(1); }
    }
    struct entry *e = &table[n_entries++];
    e->name = strdup(name);
    if (!e->name) { perror("strdup"); exit(1); }
    e->total = 0;
    return e;
}

static int cmp(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    return strcmp(x->name, y->name);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: csvsum FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    char *line = NULL;
    size_t len = 0;
    int skipped = 0;
    while (getline(&line, &len, f) != -1) {
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] == 0)
            continue;
        char *comma = strchr(line, ',');
        if (!comma) {
            skipped++;
            continue;
        }
        *comma = 0;
        lookup(line)->total += atof(comma + 1);
    }
    free(line);
    fclose(f);
    if (n_entries)
        qsort(table, n_entries, sizeof table[0], cmp);
    for (size_t i = 0; i < n_entries; i++) {
        printf("%s %.2f\n", table[i].name, table[i].total);
        free(table[i].name);
    }
    free(table);
    fprintf(stderr, "skipped %d\n", skipped);
    return 0;
}
C
make -B
