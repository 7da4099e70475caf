#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /home/writer/novel.md)"
cat > /home/writer/novel.md <<'__END_OF_FILE__'
## Part 1
Quiet stair quiet stair map rain quiet.
Letter rain river stair station station river quiet.
Lamp the river quiet rain.
Station stair river the quiet river.
Map quiet lamp stair window.
Lamp window letter lamp map stair map.
Letter the letter rain river.
Stair stair window rain station.
Letter letter map stair the stair map window stair.
Station station lamp letter river.
Map quiet the river rain window lamp rain.
Rain rain map map stair map.
Window stair station quiet lamp letter.
River letter station map rain lamp lamp map rain.
## Part 2
The letter stair rain map window river stair.
The the rain station map lamp window map.
River quiet stair map lamp map the the map.
Lamp quiet station stair quiet.
Station letter the lamp letter.
River map window window river river.
Map river stair map quiet.
Lamp rain rain rain letter.
Station station rain quiet window rain rain station stair.
Letter rain letter river the.
Stair stair window map window the station the the station.
Rain map letter stair stair the stair lamp stair the.
Quiet stair rain lamp window the.
The window river map letter lamp stair quiet the window.
## Part 3
River map river river map rain quiet rain the.
Letter the quiet quiet window stair window map.
Quiet letter rain river rain stair window.
River lamp map river letter lamp window map letter rain.
Rain quiet river lamp letter river the.
Stair river stair window window stair letter window map.
Window station lamp stair quiet stair letter rain map map.
Map map quiet the stair letter river the rain.
Quiet river stair river map.
The map map station quiet lamp river.
Map station quiet river station rain.
The lamp station stair letter map map river map.
River window stair stair quiet the rain.
Quiet station quiet river the.
## Part 4
The lamp lamp quiet window window letter lamp map.
Station map station river stair map quiet station station rain.
Lamp the quiet station stair river station.
Stair the window quiet stair river the rain letter window.
Lamp letter the stair window.
Rain letter window window lamp.
Window rain river map window the river window.
Station quiet stair stair window quiet stair river quiet.
Letter window quiet the river station letter letter stair quiet.
Quiet the river map station rain quiet quiet.
Letter rain river the lamp.
Quiet station stair map rain map rain river the.
Quiet the quiet stair quiet window river letter lamp.
The river map the letter lamp stair lamp.
## Part 5
The station letter river rain window station window map the.
Map quiet quiet map the rain station river.
Window letter lamp river station station.
Letter river lamp letter lamp the river station.
Stair the stair the window river quiet river.
Rain station rain map map station window letter map.
Map quiet river station quiet station station lamp lamp.
Window window station map station.
Lamp station the letter river lamp letter rain station.
Window rain the window rain.
Lamp window the rain letter quiet station rain.
Map map river lamp map window letter rain.
Window stair map stair station quiet quiet.
Rain quiet rain letter lamp lamp the map rain.
## Part 6
Window letter letter map window rain window stair map.
Stair quiet river quiet map river station window lamp letter.
Quiet the map letter map lamp map map map window.
The map window station quiet rain station stair river stair.
River quiet station window window the rain quiet.
Stair quiet station quiet quiet.
The river river map lamp quiet stair rain.
Window map stair the quiet river letter station stair.
Lamp the river letter rain letter.
Station station river window quiet stair map map.
Rain lamp window stair map.
River stair stair map stair rain stair.
Quiet river river lamp stair window rain rain stair.
The letter quiet letter river window.
__END_OF_FILE__
mkdir -p "$(dirname /home/writer/part5.md)"
