/* csvsum: sum the amounts per name in a "name,amount" CSV file.
 *
 * usage: csvsum FILE
 * Prints one line "<name> <total>" per distinct name, sorted by name (strcmp order), with the
 * total printed with two decimals. Blank lines are ignored; lines without a comma are skipped
 * and counted, and "skipped N" is printed to stderr at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAMES 32

struct entry {
    char name[16];
    double total;
};

static struct entry table[MAX_NAMES];
static int n_entries;

static struct entry *lookup(const char *name)
{
    for (int i = 0; i < n_entries; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    struct entry *e = &table[n_entries++];
    strncpy(e->name, name, sizeof e->name);
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
    char line[64];
    int skipped = 0;
    while (fgets(line, sizeof line, f)) {
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
    fclose(f);
    qsort(table, n_entries, sizeof table[0], cmp);
    for (int i = 0; i <= n_entries; i++)
        printf("%s %.2f\n", table[i].name, table[i].total);
    fprintf(stderr, "skipped %d\n", skipped);
    return 0;
}
