#include <stdio.h>
#include <string.h>
#include "ops.h"
#include "parse.h"

int main(int argc, char **argv)
{
    char line[256], op[16];
    double a, b;
    int status = 0;
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("calc %s\n", OPS_VERSION);
        return 0;
    }
    while (fgets(line, sizeof line, stdin)) {
        int ok;
        if (line[0] == '\n' || line[0] == '#') continue;
        if (!parse_line(line, op, &a, &b)) { printf("error\n"); status = 1; continue; }
        double r = op_apply(op, a, b, &ok);
        if (!ok) { printf("error\n"); status = 1; continue; }
        printf("%.6g\n", r);
    }
    return status;
}
