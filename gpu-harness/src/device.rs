//! A headless wgpu device on Vulkan.
//!
//! Any Vulkan adapter works: Mesa's software driver (lavapipe) where there is no GPU, a real GPU
//! otherwise. `D3D9_ADAPTER=<part of the name>` (or [`Gpu::new`]'s argument) picks one; without a
//! choice a hardware adapter wins over a software one. The device asks for the adapter's own limits
//! (four `Rgba32Float` targets exceed wgpu's default bytes-per-pixel limit) and for the optional
//! features the cases can use when the adapter has them.

use thiserror::Error;

/// Why no device could be made.
#[derive(Debug, Error)]
pub enum DeviceError {
    /// No Vulkan adapter (or none whose name matches the selector).
    #[error("no Vulkan adapter{}", .0.as_ref().map(|s| format!(" matching `{s}`")).unwrap_or_default())]
    NoAdapter(Option<String>),
    /// The adapter refused the device.
    #[error("request_device failed: {0}")]
    RequestDevice(#[from] wgpu::RequestDeviceError),
}

/// A device and its queue.
#[derive(Debug)]
pub struct Gpu {
    /// The adapter's description (name, driver).
    pub info: wgpu::AdapterInfo,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    /// The features the device was given.
    pub features: wgpu::Features,
}

/// Features used when the adapter offers them: linear filtering of the `Rgba32Float` textures,
/// D3DTADDRESS_BORDER, and user clip planes.
const OPTIONAL_FEATURES: wgpu::Features = wgpu::Features::FLOAT32_FILTERABLE
    .union(wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER)
    .union(wgpu::Features::CLIP_DISTANCES);

impl Gpu {
    /// Opens a device on the adapter whose name contains `selector` (case-insensitive), or on
    /// `D3D9_ADAPTER`'s choice, or on the first hardware adapter, or on any.
    pub fn new(selector: Option<&str>) -> Result<Gpu, DeviceError> {
        let env = std::env::var("D3D9_ADAPTER").ok().filter(|s| !s.is_empty());
        let selector = selector.map(str::to_string).or(env);
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = wgpu::Backends::VULKAN;
        desc.flags = wgpu::InstanceFlags::empty();
        let instance = wgpu::Instance::new(desc);
        let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN));
        let adapter = match &selector {
            Some(s) => {
                let s = s.to_lowercase();
                adapters.into_iter().find(|a| a.get_info().name.to_lowercase().contains(&s))
            }
            None => {
                let mut all = adapters;
                all.sort_by_key(|a| a.get_info().device_type == wgpu::DeviceType::Cpu);
                all.into_iter().next()
            }
        }
        .ok_or(DeviceError::NoAdapter(selector))?;
        let features = adapter.features() & OPTIONAL_FEATURES;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("d3d9 harness"),
            required_features: features,
            required_limits: adapter.limits(),
            ..Default::default()
        }))?;
        Ok(Gpu { info: adapter.get_info(), device, queue, features })
    }

    /// A one-line description: adapter name and driver.
    pub fn describe(&self) -> String {
        format!("{} ({:?}, {} {})", self.info.name, self.info.device_type, self.info.driver, self.info.driver_info)
    }

    /// Waits until the queue is idle.
    pub fn wait(&self) {
        let _ = self.device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None });
    }
}

/// Whether a missing GPU must fail (CI sets `REQUIRE_GPU=1`).
pub fn gpu_required() -> bool {
    std::env::var("REQUIRE_GPU").is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true"))
}

/// The device for a GPU test: `None` (after a loud message) when there is no adapter, unless
/// `REQUIRE_GPU=1`, in which case the test fails.
pub fn gpu_for_test(test: &str) -> Option<Gpu> {
    match Gpu::new(None) {
        Ok(gpu) => Some(gpu),
        Err(e) if gpu_required() => panic!("{test}: REQUIRE_GPU=1 but no GPU device: {e}"),
        Err(e) => {
            eprintln!("\n*** SKIPPED {test}: no GPU device ({e}); set REQUIRE_GPU=1 to make this a failure ***\n");
            None
        }
    }
}
