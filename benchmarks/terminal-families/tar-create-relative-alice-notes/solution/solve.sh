#!/bin/bash
set -e
tar -czf /home/alice/backup/notes.tar.gz -C /home/alice notes
