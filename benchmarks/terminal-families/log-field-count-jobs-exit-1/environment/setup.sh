#!/bin/bash
set -e
cd /app
mkdir -p "$(dirname /opt/ci/jobs.tsv)"
cat > /opt/ci/jobs.tsv <<'__END_OF_FILE__'
job_id	name	duration_s	exit_code
1100	test-unit	76	0
1101	lint	85	1
1102	deploy-staging	226	0
1103	docs	65	2
1104	build	104	1
1105	deploy-staging	181	137
1106	deploy-staging	217	1
1107	docs	50	1
1108	lint	252	1
1109	deploy-staging	149	2
1110	deploy-staging	191	1
1111	deploy-staging	10	0
1112	test-unit	281	0
1113	build	89	1
1114	deploy-staging	208	1
1115	docs	111	0
1116	test-e2e	19	0
1117	test-e2e	80	137
1118	deploy-staging	272	0
1119	build	114	0
1120	build	41	0
1121	test-e2e	164	0
1122	build	10	2
1123	test-unit	251	0
1124	test-e2e	69	0
1125	lint	55	1
1126	test-unit	139	1
1127	test-e2e	109	1
1128	test-unit	141	1
1129	deploy-staging	258	127
1130	build	179	0
1131	docs	125	2
__END_OF_FILE__
mkdir -p "$(dirname /opt/ci/exit1_count.txt)"
