#ifndef OPS_H
#define OPS_H
#define OPS_VERSION "1.4"
double op_apply(const char *name, double a, double b, int *ok);
#endif
