import { describe, expect, it } from 'vitest';
import { alertTone, cardTone } from '@/features/alerts/utils/alert-style.ts';

describe('an alert card’s colour', () => {
  it('is its type’s (spec: FALL, SOS red; BATTERY blue; others yellow) unless its priority is high', () => {
    expect(cardTone({ alertType: 'BATTERY', priority: 'low' })).toBe('blue');
    expect(cardTone({ alertType: 'LOW_SPO2', priority: 'medium' })).toBe('yellow');
    expect(cardTone({ alertType: 'FALL', priority: 'high' })).toBe('red');
  });

  it('is red for a high-priority vital, whose type alone is yellow', () => {
    expect(alertTone('LOW_HEART_RATE')).toBe('yellow');
    expect(cardTone({ alertType: 'LOW_HEART_RATE', priority: 'high' })).toBe('red');
  });
});
