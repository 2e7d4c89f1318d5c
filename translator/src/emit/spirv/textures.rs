//! Texture sampling: `texld` and its variants as naga's `ImageSample`, written as naga's
//! backend writes it (a combined image-sampler per sample, a depth texture's sample without a
//! comparison read as `vec4` and its first component taken).

use naga::{Expression as E, ImageClass, SampleLevel, TypeInner};
use spirv::{ImageOperands, Op};

use super::functions::Cx;
use super::{Result, Unsupported, Writer};

impl<'m> Writer<'m> {
    pub(super) fn image_sample(&mut self, cx: Cx<'m>, ty: u32, expression: &E) -> Result<u32> {
        let E::ImageSample {
            image,
            sampler,
            gather,
            coordinate,
            array_index: None,
            offset: None,
            level,
            depth_ref,
            clamp_to_edge: false,
        } = *expression
        else {
            return Err(Unsupported("image sample with an array index, offset or edge clamp"));
        };
        let image_type = cx.fi.ty(image).handle().ok_or(Unsupported("image type"))?;
        let TypeInner::Image { class, arrayed: false, .. } = self.module.types[image_type].inner else {
            return Err(Unsupported("arrayed image"));
        };
        let depth = matches!(class, ImageClass::Depth { .. });
        let whole = depth && depth_ref.is_none() && gather.is_none();
        let sample_ty = if whole { self.vector_type(naga::VectorSize::Quad, naga::Scalar::F32)? } else { ty };
        let image_ty = self.type_id(image_type)?;
        let sampled_ty = self.sampled_image_type(image_ty)?;
        let image = self.value(cx, image)?;
        let sampler = self.value(cx, sampler)?;
        let coordinate = self.value(cx, coordinate)?;
        let dref = match depth_ref {
            Some(d) => Some(self.value(cx, d)?),
            None => None,
        };
        let combined = self.binary(Op::SampledImage, sampled_ty, image, sampler);
        let (op, operands): (Op, arrayvec::ArrayVec<u32, 3>) = match (level, gather) {
            (_, Some(component)) => {
                let c = self.u32_constant(component as u32)?;
                match dref {
                    Some(_) => (Op::ImageDrefGather, arrayvec::ArrayVec::new()),
                    None => (Op::ImageGather, [c].into_iter().collect()),
                }
            }
            (SampleLevel::Auto, None) => (implicit(dref), arrayvec::ArrayVec::new()),
            (SampleLevel::Zero, None) => {
                let zero = self.literal(naga::Literal::F32(0.0))?;
                (explicit(dref), [ImageOperands::LOD.bits(), zero].into_iter().collect())
            }
            (SampleLevel::Exact(lod), None) => {
                if !matches!(self.inner(cx, lod), TypeInner::Scalar(naga::Scalar::F32)) {
                    return Err(Unsupported("integer level"));
                }
                let lod = self.value(cx, lod)?;
                (explicit(dref), [ImageOperands::LOD.bits(), lod].into_iter().collect())
            }
            (SampleLevel::Bias(bias), None) => {
                let bias = self.value(cx, bias)?;
                (implicit(dref), [ImageOperands::BIAS.bits(), bias].into_iter().collect())
            }
            (SampleLevel::Gradient { x, y }, None) => {
                let x = self.value(cx, x)?;
                let y = self.value(cx, y)?;
                (explicit(dref), [ImageOperands::GRAD.bits(), x, y].into_iter().collect())
            }
        };
        let id = self.id();
        let start = self.buf.fx.body.begin(op);
        for word in [sample_ty, id, combined, coordinate] {
            self.buf.fx.body.push(word);
        }
        if let Some(d) = dref {
            self.buf.fx.body.push(d);
        }
        for w in operands {
            self.buf.fx.body.push(w);
        }
        self.buf.fx.body.end(start);
        if whole {
            return Ok(self.binary(Op::CompositeExtract, ty, id, 0));
        }
        Ok(id)
    }
}

fn implicit(dref: Option<u32>) -> Op {
    if dref.is_some() {
        Op::ImageSampleDrefImplicitLod
    } else {
        Op::ImageSampleImplicitLod
    }
}

fn explicit(dref: Option<u32>) -> Op {
    if dref.is_some() {
        Op::ImageSampleDrefExplicitLod
    } else {
        Op::ImageSampleExplicitLod
    }
}
