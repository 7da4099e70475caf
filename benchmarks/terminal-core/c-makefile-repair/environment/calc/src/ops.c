#include <math.h>
#include <string.h>
#include "ops.h"

double op_apply(const char *name, double a, double b, int *ok)
{
    *ok = 1;
    if (strcmp(name, "add") == 0) return a + b;
    if (strcmp(name, "sub") == 0) return a - b;
    if (strcmp(name, "mul") == 0) return a * b;
    if (strcmp(name, "div") == 0) { if (b == 0) { *ok = 0; return 0; } return a / b; }
    if (strcmp(name, "pow") == 0) return pow(a, b);
    if (strcmp(name, "hypot") == 0) return hypot(a, b);
    if (strcmp(name, "log10") == 0) { if (a <= 0) { *ok = 0; return 0; } return log10(a); }
    *ok = 0;
    return 0;
}
