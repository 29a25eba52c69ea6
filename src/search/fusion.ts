// The constant of reciprocal rank fusion: a hit at rank r (from 1) adds 1 / (RRF_K + r). 60 is the
// value of the original paper (Cormack, Clarke and Büttcher, SIGIR 2009) and damps the head of each
// ranking enough that an item found by two rankings outranks one found at the top of only one.
export const RRF_K = 60;
