/**
 * The Global Diplomacy world map, authored (the original is lost). One line per area:
 * `id kind supply lon lat Name` (kind L land, C coast, S sea; supply 0, 1 or 2), then the
 * edges as `id: neighbours`, each written once (the loader makes them symmetric). Which
 * units may cross is derived in map.ts: land units between land and coastal areas, naval
 * units between a sea and anything it touches, and between two coasts that share a sea.
 * Every number and name the seed gives is kept (docs/global.md lists them).
 */

export const REGIONS: readonly (readonly [string, number, number])[] = [
  // region, first id, last id (land areas; the seas 201-250 are assigned by longitude)
  ["europe", 1, 72],
  ["asia", 73, 125],
  ["north-america", 126, 155],
  ["south-america", 156, 180],
  ["africa", 181, 200],
];

export const AREAS = `
1 C 1 -8 53 Ireland
2 C 0 -4.5 57.5 Highlands
3 C 2 -3.2 55.9 Edinburgh
4 C 0 -3.7 52.3 Wales
5 C 1 -3 53.4 Liverpool
6 C 0 -1.2 54 Yorkshire
7 C 2 -0.1 51.5 London
8 C 1 -19 65 Iceland
9 C 2 -8.5 39.5 Portugal
10 C 1 -5 37.5 Andalusia
11 C 0 -6 43.2 Asturias
12 L 2 -3.7 40.4 Madrid
13 C 1 1.5 41.5 Catalonia
14 C 0 -0.5 44 Gascony
15 C 2 5.4 43.5 Marseilles
16 C 2 -3 48 Brittany
17 C 0 2.3 50 Picardy
18 L 2 2.35 48.85 Paris
19 C 1 5 52.2 Holland
20 C 1 4.4 50.8 Belgium
21 L 0 4.8 47.2 Burgundy
22 L 0 3 45.5 Auvergne
23 C 0 12 53.7 Mecklenburg
24 L 0 17 52.4 Posen
25 C 0 15 54 Pomerania
26 L 2 13.4 52.5 Berlin
27 C 2 20.5 54.7 Prussia
28 C 0 9.7 52.8 Hanover
29 L 1 17 51 Silesia
30 L 0 11.5 48.5 Bavaria
31 C 2 14.5 41 Naples
32 L 1 7.5 51.5 Westphalia
33 C 2 12.5 41.9 Rome
34 C 1 8 45 Piedmont
35 C 1 12.3 45.4 Venice
36 C 0 14 37.5 Sicily
37 C 0 9 40 Sardinia
38 L 1 8 46.8 Switzerland
39 L 2 16.4 48.2 Vienna
40 L 1 14.5 50 Bohemia
41 L 0 22 49.8 Galicia
42 L 1 21 52.2 Poland
43 L 2 19 47.5 Hungary
44 C 2 16 59.5 Sweden
45 C 0 23.5 55.2 Lithuania
46 C 1 13.8 45.6 Trieste
47 L 0 11.4 47.2 Tyrol
48 C 0 16.5 43.5 Dalmatia
49 C 0 24.5 57 Livonia
50 C 2 30.3 59.9 St Petersburg
51 C 2 22.5 39 Greece
52 L 2 37.6 55.7 Moscow
53 L 1 31 50 Ukraine
54 C 1 34 45 Crimea
55 C 0 25 62 Finland
56 L 0 27.5 53.9 White Russia
57 C 0 40 47.5 Don
58 L 1 46 52 Volga
59 C 1 40.5 64.5 Archangel
60 L 1 21 44 Serbia
61 C 1 9.5 56 Denmark
62 C 2 9 61 Norway
63 C 2 25 45 Rumania
64 C 1 25.5 42.7 Bulgaria
65 C 0 20 41 Albania
66 C 2 29 41 Constantinople
67 C 1 22.5 41.2 Macedonia
68 C 0 32.5 39.5 Anatolia
69 C 2 27.1 38.4 Smyrna
70 C 0 40 40 Armenia
71 C 0 28.8 47 Odessa
72 C 1 44 42.5 Caucasus
73 C 0 36.5 34.5 Syria
74 C 1 44.4 33.3 Mesopotamia
75 C 0 39.8 21.5 Hejaz
76 C 0 45 24 Arabia
77 C 1 57 22 Oman
78 C 2 53 32.5 Persia
79 L 1 66 41 Turkestan
80 L 0 68 48 Kirghiz Steppe
81 L 1 67 34 Afghanistan
82 L 1 74 31 Punjab
83 C 2 73 19 Bombay
84 L 2 77 28.6 Delhi
85 C 2 88.3 22.6 Bengal
86 C 1 80 13 Madras
87 C 1 80.7 7.8 Ceylon
88 C 1 96 19 Burma
89 L 0 88 31 Tibet
90 C 1 100.5 13.7 Siam
91 C 1 102 4 Malay States
92 C 1 106.7 10.8 Cochin
93 C 0 105.8 21 Tonkin
94 L 0 102.7 25 Yunnan
95 C 1 113.3 23.1 Canton
96 C 0 119.3 26 Fukien
97 C 2 121.5 31.2 Shanghai
98 L 0 114.3 30.6 Hankow
99 L 1 104 30.6 Szechwan
100 C 2 116.4 39.9 Peking
101 C 1 117 36.6 Shantung
102 C 1 125 43.8 Manchuria
103 C 1 127 37.5 Korea
104 L 0 105 47 Mongolia
105 L 0 85 42 Sinkiang
106 L 0 73 55 Omsk
107 L 0 104 52 Irkutsk
108 L 0 129.7 62 Yakutsk
109 C 0 143 59.4 Okhotsk
110 C 1 131.9 43.1 Vladivostok
111 C 0 158.6 53 Kamchatka
112 C 1 141.3 43 Hokkaido
113 C 2 139.7 35.7 Tokyo
114 C 2 135.5 34.7 Osaka
115 C 1 130.5 32.8 Kyushu
116 C 1 121 23.7 Formosa
117 C 2 121 14.6 Philippines
118 C 1 101.5 0 Sumatra
119 C 2 110 -7.5 Java
120 C 1 114 1 Borneo
121 C 0 143 -6 New Guinea
122 C 1 116 -31 West Australia
123 C 1 147 -22 Queensland
124 C 2 151 -33.9 New South Wales
125 C 1 174.8 -41 New Zealand
126 C 0 -150 63 Alaska
127 L 0 -135 64 Yukon
128 C 1 -123 49.5 British Columbia
129 L 0 -114 54 Alberta
130 C 1 -97 55 Manitoba
131 C 1 -79.4 43.7 Ontario
132 C 0 -122 47.5 Washington
133 C 2 -122.4 37.8 California
134 L 0 -111.9 40.8 Utah
135 C 1 -97 31 Texas
136 C 0 -90 30 Louisiana
137 C 1 -81.7 28 Florida
138 C 0 -71 43 New England
139 C 2 -71.2 46.8 Quebec
140 L 1 -87.6 41.9 Chicago
141 L 0 -100 46 Dakota
142 L 0 -94 38.6 Missouri
143 C 1 -66 46.5 New Brunswick
144 C 2 -74 40.7 New York
145 C 0 -77.4 37.5 Virginia
146 C 0 -80 34 Carolina
147 L 0 -111 34 Arizona
148 C 1 -99.1 19.4 Mexico
149 C 0 -110.9 29 Sonora
150 C 1 -89 20.5 Yucatan
151 C 1 -86 13 Central America
152 C 2 -79 22 Cuba
153 C 1 -72.3 19 Haiti
154 C 1 -55 48.5 Newfoundland
155 C 1 -157.8 21.3 Hawaii
156 C 0 -69 -53 Tierra del Fuego
157 C 0 -68 -45 Patagonia
158 C 2 -70.6 -33.4 Chile
159 C 2 -58.4 -34.6 Buenos Aires
160 L 1 -64 -36 Pampas
161 C 1 -56 -33 Uruguay
162 L 1 -57.6 -25.3 Paraguay
163 L 1 -65 -17 Bolivia
164 C 2 -77 -12 Peru
165 C 1 -78.5 -0.2 Ecuador
166 C 1 -74 4.6 Colombia
167 L 0 -62 -4 Amazonas
168 C 1 -48.5 -1.5 Para
169 C 1 -35 -8 Pernambuco
170 C 1 -38.5 -13 Bahia
171 C 2 -43.2 -22.9 Rio de Janeiro
172 C 1 -46.6 -23.5 Sao Paulo
173 C 0 -51 -30 Rio Grande
174 L 0 -56 -15 Mato Grosso
175 L 0 -49 -16 Goias
176 C 1 -58 5 Guiana
177 C 0 -70 -23 Atacama
178 C 1 -59 -51.7 Falklands
179 L 0 -66 7 Orinoco
180 C 2 -66.9 10.5 Venezuela
181 C 2 -7 33.6 Morocco
182 C 2 3 36.7 Algeria
183 C 1 10.2 36.8 Tunis
184 C 1 13 32.9 Tripoli
185 C 2 31.2 30 Egypt
186 C 1 32.5 15.6 Sudan
187 L 1 38.7 9 Abyssinia
188 C 1 45 5 Somaliland
189 L 0 5 23 Sahara
190 C 1 -17 14.7 Senegal
191 C 1 -1 6 Gold Coast
192 C 1 3.4 6.5 Nigeria
193 C 1 15 -4 Congo
194 C 0 10 4 Cameroon
195 C 1 13.2 -8.8 Angola
196 C 1 39 -6 Zanzibar
197 C 0 37 0 East Africa
198 C 1 33 -20 Mozambique
199 L 2 28 -26 Transvaal
200 C 2 18.4 -33.9 Cape Colony
201 S 0 -178 58 Bering Sea
202 S 0 -140 55 Gulf of Alaska
203 S 0 170 35 North Pacific
204 S 0 -135 30 California Current
205 S 0 -95 8 Gulf of Panama
206 S 0 -85 -15 Peru Current
207 S 0 -120 -40 South Pacific
208 S 0 -65 -58 Drake Passage
209 S 0 -62 48 Gulf of St Lawrence
210 S 0 -85 60 Hudson Bay
211 S 0 -52 58 Labrador Sea
212 S 0 -40 45 North Atlantic
213 S 0 -65 28 Sargasso Sea
214 S 0 -35 0 Brazilian Sea
215 S 0 -15 -30 South Atlantic
216 S 0 -57 -45 Argentine Sea
217 S 0 3 0 Gulf of Guinea
218 S 0 -90 25 Gulf of Mexico
219 S 0 -75 15 Caribbean Sea
220 S 0 -30 25 Central Atlantic
221 S 0 -6 46 Bay of Biscay
222 S 0 -16 30 Canary Sea
223 S 0 3 38 Western Mediterranean
224 S 0 6 42.5 Gulf of Lyon
225 S 0 16 43 Adriatic Sea
226 S 0 19 37 Ionian Sea
227 S 0 11.5 39.5 Tyrrhenian Sea
228 S 0 25 39 Aegean Sea
229 S 0 30 33.5 Eastern Mediterranean
230 S 0 34 43 Black Sea
231 S 0 -5 53.5 Irish Sea
232 S 0 0 66 Norwegian Sea
233 S 0 -2 50 English Channel
234 S 0 3 55 North Sea
235 S 0 7.5 54.2 Heligoland Bight
236 S 0 40 72 Barents Sea
237 S 0 18 56 Baltic Sea
238 S 0 21 62 Gulf of Bothnia
239 S 0 38 20 Red Sea
240 S 0 64 15 Arabian Sea
241 S 0 51 27 Persian Gulf
242 S 0 41 -18 Mozambique Channel
243 S 0 22 -40 Agulhas Sea
244 S 0 80 -15 Indian Ocean
245 S 0 91 13 Bay of Bengal
246 S 0 112 -5 Java Sea
247 S 0 113 14 South China Sea
248 S 0 125 30 East China Sea
249 S 0 135 40 Sea of Japan
250 S 0 160 -18 Coral Sea
`;

export const EDGES = `
1: 212 231
2: 3 212 231 232
3: 5 6 234
4: 5 7 231 233
5: 6 231
6: 7 234
7: 233 234
8: 212 232
9: 10 11 12 220
10: 12 13 220 222 223
11: 12 13 14 221
12: 13
13: 14 15 223 224
14: 15 16 18 22 221
15: 21 22 34 224
16: 17 18 221 233
17: 18 20 21 233
18: 21 22
19: 20 28 32 234 235
20: 21 32 233 234
21: 22 30 32 38
23: 25 26 28 61 237
24: 25 26 27 29 42
25: 26 27 237
26: 28 29 30 40
27: 42 45 237
28: 30 32 61 235
29: 40 41 42
30: 32 38 39 40 47
31: 33 35 225 226 227
33: 34 35 227
34: 35 38 47 224
35: 46 47 225
36: 226 227
37: 223 224 227
38: 47
39: 40 43 46 47
40: 41 43
41: 42 43 53 56 63
42: 45 56
43: 46 48 60 63
44: 55 62 237 238
45: 49 56 237
46: 47 48 225
48: 60 65 225
49: 50 52 56 237 238
50: 52 55 59 238
51: 65 67 226 228
52: 53 56 57 58 59
53: 54 56 57 63 71
54: 57 71 230
55: 238
57: 58 72 230
58: 59 72 79 80
59: 106 236
60: 63 64 65 67
61: 234 235 237
62: 232 234 236
63: 64 71 230
64: 66 67 230
65: 67 225 226
66: 67 68 69 228 230
67: 228
68: 69 70 73 230
69: 73 228 229
70: 72 73 74 78 230
71: 230
72: 78 230
73: 74 75 185 229
74: 76 78 241
75: 76 239
76: 77 241
77: 240 241
78: 79 81 240 241
79: 80 81 105
80: 105 106
81: 82 105
82: 83 84 89
83: 84 86 240
84: 85 86 89
85: 86 88 89 245
86: 240 245
87: 244 245
88: 89 90 94 245
89: 94 99 105
90: 91 92 93 94 245
91: 245 246
92: 93 247
93: 94 95 247
94: 95 98 99
95: 96 98 247
96: 97 98 247 248
97: 98 101 248
98: 99 100 101
99: 100 104 105
100: 101 102 104 248
101: 248
102: 103 104 107 110 248
103: 110 248 249
104: 105 107
105: 106 107
106: 107 108
107: 108
108: 109 110
109: 110 111 201 249
110: 249
111: 201 203
112: 113 203 249
113: 114 203
114: 115 203 249
115: 248 249
116: 247 248
117: 246 247 250
118: 244 245 246
119: 244 246
120: 246 247
121: 246 250
122: 123 124 244 246
123: 124 250
124: 207 250
125: 207 250
126: 127 128 201 202
127: 128 129 130
128: 129 132 202
129: 130 132 141
130: 131 141 210
131: 139 140 141 144 210
132: 133 134 141 202 204
133: 134 147 149 204
134: 141 142 147
135: 136 142 147 148 149 218
136: 137 142 146 218
137: 146 213 218
138: 139 143 144 212
139: 143 209 210
140: 141 142 144 145
141: 142
142: 146 147
143: 209 212
144: 145 212
145: 146 212 213
146: 213
147: 149
148: 149 150 151 205 218
149: 204 205
150: 151 218 219
151: 166 205 219
152: 213 218 219
153: 213 219
154: 209 211 212
155: 203 204
156: 157 208 216
157: 158 159 160 207 216
158: 160 177 207
159: 160 161 162 216
160: 162 163
161: 162 173 215 216
162: 163 173 174
163: 164 167 174 177
164: 165 167 177 206
165: 166 167 205 206
166: 167 179 180 205 219
167: 168 174 175 176 179
168: 169 175 176 214
169: 170 175 214
170: 171 175 214 215
171: 172 175 215
172: 173 174 175 215
173: 174 215
174: 175
176: 179 214
177: 206 207
178: 208 216
179: 180
180: 219
181: 182 189 222 223
182: 183 189 223
183: 184 189 223 226 227
184: 185 189 226 229
185: 186 189 229 239
186: 187 189 194 239
187: 188 194 197
188: 197 239 240
189: 190 192
190: 191 192 220 222
191: 192 217 220
192: 194 217
193: 194 195 196 197 198 217
194: 217
195: 198 199 200 215 217
196: 197 198 242 244
197: 244
198: 199 242
199: 200
200: 215 243
201: 202 203
202: 203 204
203: 204 250
204: 205 207
205: 206 207
206: 207
207: 208 250
208: 216
209: 211
210: 211
211: 212 232
212: 213 220 221 231 232
213: 214 219 220
214: 215 217 220
215: 216 217 243
217: 220
218: 219
219: 220
220: 221 222
221: 233
222: 223
223: 224 227
224: 227
225: 226
226: 227 228 229
228: 229
232: 234 236
233: 234
234: 235 237
235: 237
237: 238
239: 240
240: 241 244
242: 243 244
243: 244
244: 245 246
246: 247 250
247: 248
248: 249
`;

/** The powers as the seed numbers them, their capitals, areas and starting units. */
export const POWERS = `
1 Austria-Hungary | 39 | 39 40 41 43 46 47 48 | A39 C41 A43 S46
2 China | 100 | 97 98 99 100 101 105 | A100 F97 C99 S101
3 England | 7 | 1 2 3 4 5 6 7 | F7 F3 A5
4 France | 18 | 14 15 16 17 18 21 22 | A18 F15 S16 C14
5 Germany | 26 | 23 24 25 26 27 28 29 30 32 | A26 F28 C29 C32
6 Italy | 33 | 31 33 34 35 36 37 | A33 F31 C34 S35
7 Japan | 113 | 112 113 114 115 | F113 F114 C115 S112
8 Ottoman Empire | 66 | 66 67 68 69 70 73 74 75 | A66 F69 C67 C74
9 Russia | 50 | 45 49 50 52 53 54 55 56 71 | F50 A52 C45 C54
10 Spain-Portugal | 12 | 9 10 11 12 13 | A12 F9 C11 S10
11 United States | 144 | 133 135 136 138 140 144 145 146 | F144 F133 C140 C135
`;
