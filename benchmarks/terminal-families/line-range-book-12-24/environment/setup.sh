#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /app/story.txt)"
cat > /app/story.txt <<'__END_OF_FILE__'
Ember and meadow at dusk, page 4.
Saddle and ember at dusk, page 7.
Saddle and saddle at dusk, page 10.
Compass and saddle at dusk, page 13.
Orchard and ember at dusk, page 16.
Tide and harbour at dusk, page 19.
Meadow and harbour at dusk, page 22.
Orchard and harbour at dusk, page 25.
Meadow and harbour at dusk, page 28.
Saddle and tide at dusk, page 31.
Meadow and orchard at dusk, page 34.
Orchard and meadow at dusk, page 37.
Orchard and compass at dusk, page 40.
Harbour and ember at dusk, page 43.
Harbour and harbour at dusk, page 46.
Compass and harbour at dusk, page 49.
Willow and compass at dusk, page 52.
Saddle and ember at dusk, page 55.
Saddle and willow at dusk, page 58.
Saddle and orchard at dusk, page 61.
Orchard and willow at dusk, page 64.
Tide and compass at dusk, page 67.
Harbour and orchard at dusk, page 70.
Willow and lantern at dusk, page 73.
Tide and tide at dusk, page 76.
Saddle and meadow at dusk, page 79.
Harbour and saddle at dusk, page 82.
Meadow and orchard at dusk, page 85.
Meadow and willow at dusk, page 88.
Harbour and meadow at dusk, page 91.
Harbour and compass at dusk, page 94.
Ember and ember at dusk, page 97.
Meadow and willow at dusk, page 100.
Tide and lantern at dusk, page 103.
Saddle and orchard at dusk, page 106.
Lantern and harbour at dusk, page 109.
Orchard and willow at dusk, page 112.
Tide and meadow at dusk, page 115.
Meadow and harbour at dusk, page 118.
Harbour and lantern at dusk, page 121.
Compass and saddle at dusk, page 124.
Harbour and lantern at dusk, page 127.
Compass and harbour at dusk, page 130.
Tide and meadow at dusk, page 133.
Orchard and ember at dusk, page 136.
Harbour and harbour at dusk, page 139.
Harbour and ember at dusk, page 142.
Lantern and orchard at dusk, page 145.
__END_OF_FILE__
mkdir -p "$(dirname /app/story_excerpt.txt)"
