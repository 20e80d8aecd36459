import { ProgressBar, renderProgress } from './progress-bar';

describe('renderProgress', () => {
  it('draws a bar, a percentage and the rate when the total is known', () => {
    expect(renderProgress('payments', 500, 2000, 2000)).toBe(
      'payments [########......................]  25%  500/2,000 events  2.0 s  250 events/s',
    );
  });

  it('shows a full bar for an empty projection', () => {
    expect(renderProgress('empty', 0, 0, 0)).toBe(
      'empty [##############################] 100%  0/0 events  0.0 s  0 events/s',
    );
  });

  it('counts without a bar when the total is unknown', () => {
    expect(renderProgress('ledger', 12345, undefined, 1500)).toBe(
      'ledger 12,345 events  1.5 s  8,230 events/s',
    );
  });
});

describe('ProgressBar', () => {
  const recorder = (isTTY: boolean) => {
    const written: string[] = [];
    return { written, out: { isTTY, write: (text: string) => written.push(text) } };
  };

  it('redraws one terminal line at most every 100 ms', () => {
    let clock = 0;
    const { written, out } = recorder(true);
    const bar = new ProgressBar(out, 'p', 10, () => clock);

    bar.update(1); // drawn
    clock = 50;
    bar.update(2); // too soon
    clock = 150;
    bar.update(3); // drawn
    bar.finish();

    expect(written).toHaveLength(4);
    expect(written[0]).toMatch(/^\r\x1b\[2Kp \[###/);
    expect(written[2]).toContain('3/10 events');
    expect(written[3]).toBe('\n');
  });

  it('writes whole lines every 5 s when not on a terminal', () => {
    let clock = 0;
    const { written, out } = recorder(false);
    const bar = new ProgressBar(out, 'p', undefined, () => clock);

    bar.update(1);
    clock = 1000;
    bar.update(2);
    clock = 6000;
    bar.update(3);
    bar.finish();

    expect(written).toEqual([
      'p 1 events  0.0 s  0 events/s\n',
      'p 3 events  6.0 s  1 events/s\n',
      'p 3 events  6.0 s  1 events/s\n',
    ]);
  });
});
