#include <stdio.h>
#include "parse.h"

/* "op a [b]" -> 1 on success */
int parse_line(const char *line, char *op, double *a, double *b)
{
    *b = 0;
    int n = sscanf(line, "%15s %lf %lf", op, a, b);
    return n >= 2;
}
