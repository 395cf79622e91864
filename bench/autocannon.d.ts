/** autocannon ships no types; the benchmark describes the part it uses where it calls it. */
declare module 'autocannon' {
  const autocannon: unknown;
  export default autocannon;
}
