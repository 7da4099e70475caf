#ifndef PARSE_H
#define PARSE_H
int parse_line(const char *line, char *op, double *a, double *b);
#endif
