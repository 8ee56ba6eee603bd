// The AI design generator (beta, storefront §2 state 3): item picker, prompt with tips and counter,
// Generate, the last 4 designs, and a detail view with Enlarge, Download, Customize and Finalize Order.
import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, Download, Maximize2, Sparkles, Wand2 } from 'lucide-react';
import { useState } from 'react';
import { catalog, itemTypes, limits, type ItemType } from '@shop/contracts';
import { Alert, Badge, Button, Card, ChoiceGroup, ChoiceTile, Field, Modal, Textarea, cn, toast } from '@shop/ui';
import { generateDesign, type GeneratedDesign } from '../api/shop.js';
import { ItemArt } from '../components/ItemArt.js';
import { aiPromptProblem, messages, promptCounterTone } from '../messages.js';
import { downloadDesign } from './download.js';

export interface AiDesignerProps {
  designs: GeneratedDesign[];
  onDesign: (design: GeneratedDesign) => void;
  onFinalize: (design: GeneratedDesign) => void;
  onCustomize: (design: GeneratedDesign) => void;
  onBack: () => void;
}

const tips = [
  "Name the item's main symbol: an eagle, an anchor, a crest, a skull, a flag.",
  'Add your unit name, motto or numbers exactly as they should read.',
  'Say which colors you want, e.g. gold on black, subdued OD green.',
  'Mention a style: vintage, bold, minimal, heraldic.',
];

export function AiDesigner({ designs, onDesign, onFinalize, onCustomize, onBack }: AiDesignerProps) {
  const [itemType, setItemType] = useState<ItemType | null>(null);
  const [prompt, setPrompt] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [enlarged, setEnlarged] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const selected = designs.find((d) => d.id === selectedId) ?? null;

  const generate = useMutation({
    mutationFn: ({ prompt, itemType }: { prompt: string; itemType: ItemType }) => generateDesign(prompt, itemType),
    onSuccess: ({ design, warning }) => {
      onDesign(design);
      setSelectedId(design.id);
      setWarning(warning);
      toast.success('Your design is ready');
    },
    onError: (error) => {
      const message = error instanceof Error ? error.message : String(error);
      setProblem(message);
      toast.error(message);
    },
  });

  function onGenerate() {
    const found = aiPromptProblem(prompt, itemType);
    setWarning(null);
    if (found) {
      setProblem(found);
      return;
    }
    setProblem(null);
    generate.mutate({ prompt: prompt.trim(), itemType: itemType! });
  }

  async function onDownload(design: GeneratedDesign) {
    setDownloading(true);
    try {
      await downloadDesign(design.imageUrl, design.id);
    } catch {
      toast.error(messages.downloadFailed);
      setProblem(messages.downloadFailed);
    } finally {
      setDownloading(false);
    }
  }

  const tone = promptCounterTone(prompt.length);
  const latest = designs.slice(0, limits.latestDesignsShown);

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8" data-testid="ai-designer">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="flex items-center gap-3 font-display text-3xl font-bold uppercase tracking-wide text-khaki-50">
            <Sparkles aria-hidden="true" className="size-7 text-brass-400" /> AI Design Generator{' '}
            <Badge tone="caution">Beta</Badge>
          </h1>
          <p className="mt-1 text-khaki-200">Describe your idea and get a design to start your order from.</p>
        </div>
        <Button variant="ghost" onClick={onBack}>
          <ArrowLeft aria-hidden="true" className="size-4" /> Back to Main Menu
        </Button>
      </div>

      <div className="grid gap-6 lg:grid-cols-[1fr_1fr]">
        <Card className="flex flex-col gap-5 p-5">
          <ChoiceGroup label="Item" columns={3} required>
            {itemTypes.map((type) => (
              <ChoiceTile
                key={type}
                selected={itemType === type}
                onClick={() => setItemType(type)}
                media={<ItemArt item={type} className="size-9" />}
                title={catalog[type].cardTitle}
                className="col-span-2 sm:col-span-1"
              />
            ))}
          </ChoiceGroup>
          <Field
            label="Describe your design"
            required
            hint={
              <span className="flex justify-between gap-2">
                <span>
                  Between {limits.aiPrompt.min} and {limits.aiPrompt.max} characters.
                </span>
                <span
                  aria-live="polite"
                  data-testid="prompt-counter"
                  data-tone={tone}
                  className={cn(tone === 'short' && 'text-alert-400', tone === 'full' && 'text-caution-400')}
                >
                  {prompt.length}/{limits.aiPrompt.max}
                  {tone === 'short' ? ' (min 5)' : ''}
                </span>
              </span>
            }
          >
            <Textarea
              name="prompt"
              rows={5}
              maxLength={limits.aiPrompt.max}
              value={prompt}
              placeholder="e.g. Navy challenge coin with an anchor and eagle, gold on dark blue, motto 'Honor Courage Commitment'"
              onChange={(e) => setPrompt(e.target.value)}
            />
          </Field>
          <div className="rounded-md border border-olive-600 bg-olive-800 p-4 text-sm">
            <p className="font-semibold text-khaki-50">Tips for a better design</p>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-khaki-200">
              {tips.map((t) => (
                <li key={t}>{t}</li>
              ))}
            </ul>
          </div>
          {problem ? <Alert tone="error">{problem}</Alert> : null}
          {warning ? (
            <Alert tone="warning" title="Notice">
              {warning}
            </Alert>
          ) : null}
          <Button size="lg" onClick={onGenerate} loading={generate.isPending} loadingText="Generating...">
            <Wand2 aria-hidden="true" className="size-5" /> Generate Design
          </Button>
        </Card>

        <div className="flex flex-col gap-5">
          {selected ? (
            <Card className="flex flex-col gap-4 p-5" data-testid="design-detail">
              <div className="relative overflow-hidden rounded-md bg-ink-900">
                <img
                  src={selected.imageUrl}
                  alt={`Generated design: ${selected.prompt}`}
                  className="mx-auto aspect-square w-full max-w-sm object-contain"
                />
              </div>
              <div className="flex flex-wrap gap-2">
                <Badge tone="brass">{catalog[selected.itemType].cardTitle}</Badge>
                <Badge tone="neutral">AI Generated</Badge>
              </div>
              <p className="text-sm text-khaki-100">{selected.prompt}</p>
              <div className="grid grid-cols-2 gap-2">
                <Button variant="secondary" onClick={() => setEnlarged(true)}>
                  <Maximize2 aria-hidden="true" className="size-4" /> Enlarge
                </Button>
                <Button
                  variant="secondary"
                  onClick={() => onDownload(selected)}
                  loading={downloading}
                  loadingText="Downloading..."
                >
                  <Download aria-hidden="true" className="size-4" /> Download
                </Button>
                <Button variant="secondary" onClick={() => onCustomize(selected)}>
                  Customize
                </Button>
                <Button onClick={() => onFinalize(selected)}>Finalize Order</Button>
              </div>
            </Card>
          ) : (
            <Card className="flex flex-col items-center gap-3 p-8 text-center">
              <Sparkles aria-hidden="true" className="size-10 text-brass-400" />
              <p className="text-khaki-100">
                Your designs appear here. Pick an item, describe your idea and press Generate Design.
              </p>
            </Card>
          )}

          {latest.length ? (
            <section aria-labelledby="recent-designs">
              <h2 id="recent-designs" className="mb-2 text-sm font-semibold uppercase tracking-wide text-khaki-200">
                Recent designs
              </h2>
              <ul className="grid grid-cols-4 gap-2">
                {latest.map((d, i) => (
                  <li key={d.id}>
                    <button
                      type="button"
                      onClick={() => setSelectedId(d.id)}
                      aria-pressed={d.id === selected?.id}
                      aria-label={`Design ${i + 1}: ${d.prompt}`}
                      className={cn(
                        'block w-full overflow-hidden rounded-md border bg-ink-900 focus-visible:outline-2 focus-visible:outline-brass-300',
                        d.id === selected?.id ? 'border-brass-400' : 'border-olive-600',
                      )}
                    >
                      <img src={d.imageUrl} alt="" className="aspect-square w-full object-contain" />
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>
      </div>

      {selected ? (
        <Modal open={enlarged} onOpenChange={setEnlarged} title="Your design" size="xl">
          <img
            src={selected.imageUrl}
            alt={`Generated design, enlarged: ${selected.prompt}`}
            className="mx-auto max-h-[70vh] w-full object-contain"
          />
        </Modal>
      ) : null}
    </div>
  );
}
