#!/bin/bash
set -e
grep -F 'TODO' /home/dev/shop/cart.py > /home/dev/todo.txt
