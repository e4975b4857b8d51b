//! The network's float parameters as candle variables ([`Model`]): random or from a network
//! file, the forward pass on sparse inputs, the loss, the clipping that keeps the quantised
//! network in range, and the quantisation into the engine's file types.

use anyhow::{Context, Result, bail};
use candle_core::{DType, Device, Tensor, Var};
use skald::ataxx::nnue;
use skald::nnue::{Layers, QA, QB};
use skald::tafl::nnue::TaflNetwork;

use crate::loader::Batch;
use crate::net::{Act, Arch, Quantised, Spec};
use crate::sparse;

/// The output layer's float bound: round(1.98 × 2048) = 4055 in `i16`.
pub const OUTPUT_CLIP: f32 = 1.98;

/// A batch's tensors on the training device.
pub struct Tensors {
    /// Per perspective, `(n, slots)` u32 feature indices.
    pub idx: Vec<Tensor>,
    /// `(n, 1)` u32 output heads.
    pub heads: Tensor,
    /// `(n, 1)` targets.
    pub targets: Tensor,
}

impl Tensors {
    /// The batch's tensors on `dev`.
    pub fn new(b: &Batch, perspectives: usize, dev: &Device) -> Result<Tensors> {
        let idx = (0..perspectives)
            .map(|p| Tensor::from_slice(&b.idx[p], (b.n, b.slots), dev))
            .collect::<candle_core::Result<_>>()?;
        Ok(Tensors {
            idx,
            heads: Tensor::from_slice(&b.heads, (b.n, 1), dev)?,
            targets: Tensor::from_slice(&b.targets, (b.n, 1), dev)?,
        })
    }
}

/// The network's parameters (float, unquantised): `w1` `(inputs, hidden)`, `b1` `(hidden)`,
/// `w2` `(perspectives × hidden, heads)` (head `h`'s output weights are column `h`), `b2`
/// `(heads)`.
pub struct Model {
    /// What is trained.
    pub spec: Spec,
    /// First layer.
    pub w1: Var,
    /// First layer's bias.
    pub b1: Var,
    /// Output layer.
    pub w2: Var,
    /// Output bias.
    pub b2: Var,
}

/// `n` normal deviates of standard deviation `std` (Box–Muller), from `rng`.
fn normal(rng: &mut rand::rngs::StdRng, n: usize, std: f32) -> Vec<f32> {
    use rand::RngExt;
    (0..n)
        .map(|_| {
            let u1: f32 = rng.random::<f32>().max(1e-7);
            let u2: f32 = rng.random();
            std * (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos()
        })
        .collect()
}

impl Model {
    /// Random first-layer weights (σ 0.15: the 20–50 active features then give hidden values
    /// of σ ≈ 1), random output weights (σ 1/√(perspectives·hidden), each head its own), zero
    /// biases.
    pub fn new(spec: &Spec, rng: &mut rand::rngs::StdRng, dev: &Device) -> Result<Model> {
        let (inputs, hidden, width) = (
            spec.inputs(),
            spec.hidden,
            spec.perspectives() * spec.hidden,
        );
        let heads = spec.heads();
        let w1 = Tensor::from_vec(normal(rng, inputs * hidden, 0.15), (inputs, hidden), dev)?;
        let w2 = Tensor::from_vec(
            normal(rng, width * heads, 1.0 / (width as f32).sqrt()),
            (width, heads),
            dev,
        )?;
        Ok(Model {
            spec: spec.clone(),
            w1: Var::from_tensor(&w1)?,
            b1: Var::zeros(hidden, DType::F32, dev)?,
            w2: Var::from_tensor(&w2)?,
            b2: Var::zeros(heads, DType::F32, dev)?,
        })
    }

    /// The weights of the network file at `path` (a format-2 Ataxx pattern network or a tafl
    /// network), dequantised (`w1`, `b1` divided by `QA`, `w2` by `QB`, `b2` by `QA × QB`).
    /// Heads are mapped: a file of one output bucket may start a bucketed model (every bucket
    /// begins as its output layer), and a tafl file of one side-to-move head (the defenders'
    /// view) a model of two (the attackers' head negated), so that the model evaluates as the
    /// file does and training lets the heads part. A file of fewer hidden neurons than the spec's
    /// may start a wider model: its neurons are the model's first ones, and each further one
    /// has random first-layer weights (as [`Model::new`], from `rng`), a zero bias and zero output
    /// weights, so that the model still evaluates as the file does and training puts the new
    /// neurons to use (Net2Net's widening with silent new units). Errors if the file is not of
    /// the spec's architecture, or its hidden size (larger than the spec's), activation, scale or
    /// heads do not fit.
    pub fn from_network(
        spec: &Spec,
        path: &std::path::Path,
        rng: &mut rand::rngs::StdRng,
        dev: &Device,
    ) -> Result<Model> {
        let at = || format!("--init {}", path.display());
        let (layers, file_sides, file_buckets) = match spec.arch {
            Arch::V1 => bail!("{}: --init needs --arch patterns or pieces", at()),
            Arch::Patterns => {
                let net = nnue::PatternNetwork::load(path).with_context(at)?;
                let l = Layers::from_parts(
                    nnue::NUM_PATTERN_FEATURES,
                    net.hidden(),
                    2,
                    net.activation(),
                    net.parts().0,
                    net.parts().1,
                    net.parts().2,
                    net.parts().3,
                    net.scale(),
                )
                .expect("a network's own parts");
                (l, 1, net.buckets())
            }
            Arch::Pieces => {
                let net = TaflNetwork::load(path).with_context(at)?;
                let tafl = spec.tafl.as_ref().expect("tafl");
                net.check_board(tafl.size).with_context(at)?;
                if net.feature_set() != tafl.features {
                    bail!(
                        "{}: its inputs are {:?}, the model's {:?} (--king-reach)",
                        at(),
                        net.feature_set(),
                        tafl.features
                    );
                }
                (net.layers().clone(), net.side_heads(), net.buckets())
            }
        };
        let (ms, mb) = (spec.side_heads, spec.buckets);
        if layers.hidden() > spec.hidden
            || layers.activation() != spec.activation.nnue()
            || layers.scale() != spec.k
            || !(file_sides == ms || file_sides == 1)
            || !(file_buckets == mb || file_buckets == 1)
        {
            bail!(
                "{} has {} hidden, {:?}, {file_sides} side-to-move head(s) of {file_buckets} \
                 output bucket(s) and scale {}: give --hidden {} (or more), its --activation and \
                 --k, and as many heads and buckets (or more from one)",
                at(),
                layers.hidden(),
                layers.activation(),
                layers.scale(),
                layers.hidden(),
            );
        }
        let (w1, b1, w2, b2) = layers.parts();
        let file_hidden = layers.hidden();
        let hidden = spec.hidden;
        let width = spec.perspectives() * hidden;
        let heads = ms * mb;
        // The file's neurons first in each row, then the new ones (random in W1, zero in b1).
        let fresh = normal(rng, spec.inputs() * (hidden - file_hidden), 0.15);
        let w1m: Vec<f32> = (0..spec.inputs() * hidden)
            .map(|i| {
                let (f, j) = (i / hidden, i % hidden);
                if j < file_hidden {
                    w1[f * file_hidden + j] as f32 / QA as f32
                } else {
                    fresh[f * (hidden - file_hidden) + j - file_hidden]
                }
            })
            .collect();
        let b1m: Vec<f32> = (0..hidden)
            .map(|j| b1.get(j).map_or(0.0, |&b| b as f32 / QA as f32))
            .collect();
        // Model head (s, b) reads file head (s mod fs, b mod fb), negated where a one-head
        // (defenders' view) file starts the attackers' head of a two-head model.
        let source = |h: usize| {
            let (s, b) = (h / mb, h % mb);
            let f = (s % file_sides) * file_buckets + b % file_buckets;
            let sign = if file_sides == 1 && ms == 2 && s == 0 && spec.arch == Arch::Pieces {
                -1.0
            } else {
                1.0
            };
            (f, sign)
        };
        // The file holds W2 head by head; the model's columns are the heads. Row `row` is
        // perspective `row / hidden`'s neuron `row % hidden`: the file's row of that neuron,
        // or zero for a new one.
        let file_width = spec.perspectives() * file_hidden;
        let w2m: Vec<f32> = (0..width * heads)
            .map(|i| {
                let (row, h) = (i / heads, i % heads);
                let (p, j) = (row / hidden, row % hidden);
                if j >= file_hidden {
                    return 0.0;
                }
                let (f, sign) = source(h);
                sign * w2[f * file_width + p * file_hidden + j] as f32 / QB as f32
            })
            .collect();
        let b2m: Vec<f32> = (0..heads)
            .map(|h| {
                let (f, sign) = source(h);
                sign * b2[f] as f32 / (QA * QB) as f32
            })
            .collect();
        let var = |t: Tensor| -> Result<Var> { Ok(Var::from_tensor(&t)?) };
        Ok(Model {
            spec: spec.clone(),
            w1: var(Tensor::from_vec(w1m, (spec.inputs(), hidden), dev)?)?,
            b1: var(Tensor::from_vec(b1m, hidden, dev)?)?,
            w2: var(Tensor::from_vec(w2m, (width, heads), dev)?)?,
            b2: var(Tensor::from_vec(b2m, heads, dev)?)?,
        })
    }

    /// The variables, for the optimiser.
    pub fn vars(&self) -> Vec<Var> {
        vec![
            self.w1.clone(),
            self.b1.clone(),
            self.w2.clone(),
            self.b2.clone(),
        ]
    }

    /// The hidden layer after activation, `(n, hidden)`, from its sums.
    fn activate(&self, a: Tensor) -> Result<Tensor> {
        let c = a.clamp(0f32, 1f32)?;
        Ok(match self.spec.activation {
            Act::Crelu => c,
            Act::Screlu => c.sqr()?,
        })
    }

    /// The output logits `(n, 1)`, each position's head's, in the network's view.
    pub fn forward(&self, t: &Tensors) -> Result<Tensor> {
        let w1 = self.w1.as_tensor();
        let b1 = self.b1.as_tensor();
        let hidden = t
            .idx
            .iter()
            .map(|idx| self.activate(sparse::bag(w1, idx)?.broadcast_add(b1)?))
            .collect::<Result<Vec<_>>>()?;
        let h = if hidden.len() == 1 {
            hidden.into_iter().next().expect("one")
        } else {
            Tensor::cat(&hidden, 1)?
        };
        let out = h
            .matmul(self.w2.as_tensor())?
            .broadcast_add(self.b2.as_tensor())?;
        Ok(if self.spec.heads() > 1 {
            out.gather(&t.heads, 1)?
        } else {
            out
        })
    }

    /// The mean squared error between `sigmoid(output)` and the targets.
    pub fn loss(&self, t: &Tensors) -> Result<Tensor> {
        let pred = candle_nn::ops::sigmoid(&self.forward(t)?)?;
        Ok(pred.sub(&t.targets)?.sqr()?.mean_all()?)
    }

    /// Clips the weights to the quantised range ([`Spec::first_layer_clip`], [`OUTPUT_CLIP`]).
    pub fn clip(&self) -> Result<()> {
        let c = self.spec.first_layer_clip();
        for v in [&self.w1, &self.b1] {
            v.set(&v.as_tensor().clamp(-c, c)?)?;
        }
        self.w2
            .set(&self.w2.as_tensor().clamp(-OUTPUT_CLIP, OUTPUT_CLIP)?)?;
        Ok(())
    }

    /// The quantised network, scale `K`.
    pub fn quantise(&self) -> Result<Quantised> {
        let q16 = |v: &Tensor, q: i32| -> Result<Vec<i16>> {
            Ok(v.flatten_all()?
                .to_vec1::<f32>()?
                .iter()
                .map(|&w| {
                    (w * q as f32)
                        .round()
                        .clamp(i16::MIN as f32, i16::MAX as f32) as i16
                })
                .collect())
        };
        let spec = &self.spec;
        let w1 = q16(self.w1.as_tensor(), QA)?;
        let b1 = q16(self.b1.as_tensor(), QA)?;
        // The model's columns are the heads; the file holds W2 head by head.
        let w2 = q16(&self.w2.as_tensor().t()?.contiguous()?, QB)?;
        let b2: Vec<i32> = self
            .b2
            .as_tensor()
            .to_vec1::<f32>()?
            .iter()
            .map(|&b| (b * (QA * QB) as f32).round() as i32)
            .collect();
        let sizes = "the network's sizes do not match the engine's";
        Ok(match spec.arch {
            Arch::V1 => Quantised::V1(Box::new(
                nnue::Network::from_parts(&w1, &b1, &w2, b2[0], spec.k).context(sizes)?,
            )),
            Arch::Patterns => Quantised::Patterns(
                nnue::PatternNetwork::from_parts(
                    spec.hidden,
                    spec.activation.nnue(),
                    &w1,
                    &b1,
                    &w2,
                    &b2,
                    spec.k,
                )
                .context(sizes)?,
            ),
            Arch::Pieces => {
                let tafl = spec.tafl.as_ref().expect("tafl");
                let layers = Layers::from_parts(
                    spec.inputs(),
                    spec.hidden,
                    1,
                    spec.activation.nnue(),
                    &w1,
                    &b1,
                    &w2,
                    &b2,
                    spec.k,
                )
                .context(sizes)?;
                Quantised::Tafl(
                    TaflNetwork::new(
                        tafl.size,
                        tafl.features,
                        tafl.variant.name(),
                        spec.side_heads,
                        spec.buckets,
                        tafl.pieces as u16,
                        layers,
                    )
                    .context(sizes)?,
                )
            }
        })
    }
}
