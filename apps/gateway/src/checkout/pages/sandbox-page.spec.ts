import { markupOnly, tagsWhere, TEST_NONCE, textOf } from '../../pages/testing/page-markup';
import { renderSandboxPage, type SandboxPageInput } from './sandbox-page';

const render = (
  payment: Partial<SandboxPageInput['payment']> = {},
  clientSecret = 'pay_1_secret_abc',
) =>
  renderSandboxPage({
    payment: {
      id: 'pay_1',
      amount: 25_000,
      description: 'Abonnement mars',
      merchantName: 'Boutique Awa',
      provider: 'wave',
      ...payment,
    },
    clientSecret,
    nonce: TEST_NONCE,
  });

describe('renderSandboxPage', () => {
  it.each([
    ['wave', 'Sandbox Wave'],
    ['orange_money', 'Sandbox Orange Money'],
  ] as const)('is clearly the %s sandbox', (provider, title) => {
    const page = render({ provider });
    expect(page).toContain(`<title>${title}</title>`);
    expect(textOf(page)).toContain(`SANDBOX · MODE TEST ${title}`);
  });

  it('shows the merchant, the amount and the description', () => {
    const text = textOf(render());
    expect(text).toContain('Marchand Boutique Awa');
    expect(text).toContain('Montant 25\u202f000\u00a0FCFA');
    expect(text).toContain('Description Abonnement mars');
  });

  it('posts Approve and Decline to their own routes, with path and cs encoded', () => {
    const page = render({ id: 'pay_1', provider: 'orange_money' }, 'pay_1_secret_a+b/c=&d');
    const forms = tagsWhere(page, (t) => t.name === 'form').map((f) => f.attrs);
    expect(forms).toEqual([
      {
        method: 'post',
        action: '/sandbox/orange_money/pay_1/approve?cs=pay_1_secret_a%2Bb%2Fc%3D%26d',
      },
      {
        method: 'post',
        action: '/sandbox/orange_money/pay_1/decline?cs=pay_1_secret_a%2Bb%2Fc%3D%26d',
      },
    ]);
  });

  it('puts one submit button in each form, marked for a browser test', () => {
    const page = render();
    const forms = markupOnly(page).match(/<form[\s\S]*?<\/form>/g) ?? [];
    expect(forms.map((form) => /data-action="(\w+)"/.exec(form)?.[1])).toEqual([
      'approve',
      'decline',
    ]);
    expect(textOf(page)).toContain('Approuver le paiement Refuser le paiement');
  });

  it('escapes what the merchant wrote', () => {
    const page = render({
      merchantName: '<img src=x onerror=alert(1)>',
      description: '"><script>x()</script>',
    });
    expect(tagsWhere(page, (t) => t.name === 'img')).toHaveLength(0);
    expect(markupOnly(page)).not.toContain('<script>x()');
    expect(textOf(page)).toContain('<img src=x onerror=alert(1)>');
  });

  it('needs no script', () => {
    expect(render()).not.toContain('<script');
  });
});
