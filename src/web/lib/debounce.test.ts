import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { debounce } from './debounce.ts';

describe('debounce', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls once, with the last arguments, after the calls pause for the delay', () => {
    const calls: string[] = [];
    const typed = debounce((text: string) => calls.push(text), 500);
    typed('w');
    vi.advanceTimersByTime(300);
    typed('wi');
    vi.advanceTimersByTime(499);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['wi']);
  });

  it('can cancel a pending call', () => {
    const calls: string[] = [];
    const typed = debounce((text: string) => calls.push(text), 500);
    typed('x');
    typed.cancel();
    vi.advanceTimersByTime(1000);
    expect(calls).toEqual([]);
  });
});
