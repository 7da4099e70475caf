#!/bin/bash
cd /app/calc
cat > Makefile <<'M'
CC = gcc
CFLAGS = -O2 -Wall -Iinclude -MMD -MP
LDLIBS = -lm
SRCS = $(wildcard src/*.c)
OBJS = $(patsubst src/%.c,build/%.o,$(SRCS))

all: bin/calc

bin/calc: $(OBJS)
	mkdir -p bin
	$(CC) -o $@ $(OBJS) $(LDLIBS)

build/%.o: src/%.c
	mkdir -p build
	$(CC) $(CFLAGS) -c $< -o $@

test: bin/calc
	./bin/calc < tests/cases.txt | diff - tests/expected.txt

clean:
	rm -rf build bin

-include $(OBJS:.o=.d)

.PHONY: all test clean
M
make
