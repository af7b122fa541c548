// Reads a CPU profile (Chrome DevTools' .cpuprofile, as `page-big-files.mjs
// --profile` writes) and prints, for each of the longest busy stretches of
// the page's thread (samples in JavaScript or wasm, with gaps under 1 ms), its
// start, length and the functions that took its time (self and total).
// A measuring aid: it prints, it asserts nothing.
//
//   node scripts/profile-analyse.mjs FILE.cpuprofile [STRETCHES]
import fs from 'node:fs';

const [file, count = '5'] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}`.trim();
const idle = (n) => ['(idle)', '(program)', '(garbage collector)'].includes(n.callFrame.functionName) ? n.callFrame.functionName : null;

let t = profile.startTime;
const samples = profile.samples.map((id, i) => {
  t += profile.timeDeltas[i];
  return { id, t };
});
// Busy stretches: consecutive non-idle samples ("(program)" and GC count as busy when inside one).
const stretches = [];
let cur = null;
for (let i = 0; i < samples.length; i++) {
  const s = samples[i];
  const n = byId.get(s.id);
  const dt = i + 1 < samples.length ? samples[i + 1].t - s.t : 0;
  if (idle(n) === '(idle)' || idle(n) === '(program)') {
    if (cur && s.t - cur.end > 1000) { stretches.push(cur); cur = null; }
    continue;
  }
  if (!cur) cur = { start: s.t, end: s.t, samples: [] };
  cur.end = s.t + dt;
  cur.samples.push({ id: s.id, dt });
}
if (cur) stretches.push(cur);
// With the long tasks the page observed (`FILE.tasks`, `FILE.start`: the
// page's clock when the profile started), each long task is a stretch.
if (fs.existsSync(`${file}.tasks`)) {
  const start = Number(fs.readFileSync(`${file}.start`, 'utf8'));
  const tasks = JSON.parse(fs.readFileSync(`${file}.tasks`, 'utf8'));
  stretches.length = 0;
  for (const [at, duration] of tasks) {
    const from = profile.startTime + (at - start) * 1000;
    const to = from + duration * 1000;
    const inside = [];
    for (let i = 0; i < samples.length; i++) {
      if (samples[i].t < from || samples[i].t > to) continue;
      const dt = i + 1 < samples.length ? samples[i + 1].t - samples[i].t : 0;
      inside.push({ id: samples[i].id, dt });
    }
    stretches.push({ start: from, end: to, samples: inside });
  }
}
stretches.sort((a, b) => (b.end - b.start) - (a.end - a.start));
for (const st of stretches.slice(0, Number(count))) {
  const self = new Map();
  const total = new Map();
  for (const { id, dt } of st.samples) {
    const n = byId.get(id);
    self.set(name(n), (self.get(name(n)) ?? 0) + dt);
    const seen = new Set();
    for (let p = id; p !== undefined; p = parent.get(p)) {
      const k = name(byId.get(p));
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  }
  const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([f, us]) => `    ${(us / 1000).toFixed(0).padStart(6)} ms  ${f.slice(0, 150)}`).join('\n');
  console.log(`stretch at ${((st.start - profile.startTime) / 1e6).toFixed(2)} s, ${((st.end - st.start) / 1000).toFixed(0)} ms`);
  console.log(`  self:\n${top(self, 12)}`);
  console.log(`  total:\n${top(total, 25)}`);
}
