//! The comparison as a plot: executions and seconds against the bound.

use super::{bound_label, Comparison, Row};
use crate::build::model_name;
use anyhow::Result;
use std::path::Path;

impl Comparison {
    /// Executions (log scale) and seconds against the bound, one line per
    /// model, as two panels of one SVG. SC, which has no bound, is a dashed
    /// level line. Filled markers are violations, hollow ones SAFE, crosses UNKNOWN.
    pub fn plot(&self, path: &Path) -> Result<()> {
        use plotters::prelude::*;
        let bounds = self.bounds();
        // the x axis: categories 0..n-1 labelled with the bounds; SC alone still gets one column
        let labels: Vec<String> =
            if bounds.is_empty() { vec!["-".into()] } else { bounds.iter().map(|&b| bound_label(Some(b))).collect() };
        let n = labels.len() as i32;
        let x_of = |r: &Row| -> Vec<i32> {
            match r.bound {
                None => (0..n).collect(),
                Some(b) => vec![bounds.iter().position(|&x| x == b).unwrap_or(0) as i32],
            }
        };
        // the y ranges leave headroom above the data for the legend
        let max_exec = self.rows.iter().map(|r| r.executions).max().unwrap_or(1).max(1) as f64;
        let max_secs = self.rows.iter().map(|r| r.seconds).fold(0.0, f64::max).max(1e-3);

        let root = SVGBackend::new(path, (1100, 460)).into_drawing_area();
        let err = |e: &dyn std::fmt::Display| anyhow::anyhow!("{}: {e}", path.display());
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let root = root
            .titled(
                "cost against store-buffer bound (filled marker: VIOLATION, hollow: SAFE, cross: UNKNOWN)",
                ("sans-serif", 18),
            )
            .map_err(|e| err(&e))?;
        let (left, right) = root.split_horizontally(550);
        let x_fmt = |v: &SegmentValue<i32>| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => labels.get(*i as usize).cloned().unwrap_or_default(),
            SegmentValue::Last => String::new(),
        };

        // panel 1: executions, log scale
        {
            let mut chart = ChartBuilder::on(&left)
                .caption("executions (log scale)", ("sans-serif", 16))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(70)
                .build_cartesian_2d((0..n - 1).into_segmented(), (0.8f64..max_exec * 30.0).log_scale())
                .map_err(|e| err(&e))?;
            chart
                .configure_mesh()
                .x_labels(labels.len())
                .x_label_formatter(&x_fmt)
                .y_label_formatter(&|v| format!("{v:.0}"))
                .x_desc("store-buffer bound")
                .y_desc("executions")
                .draw()
                .map_err(|e| err(&e))?;
            self.draw_models(&mut chart, &x_of, |r| r.executions.max(1) as f64).map_err(|e| err(&e))?;
        }
        // panel 2: seconds
        {
            let mut chart = ChartBuilder::on(&right)
                .caption("seconds", ("sans-serif", 16))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(70)
                .build_cartesian_2d((0..n - 1).into_segmented(), 0f64..max_secs * 1.4)
                .map_err(|e| err(&e))?;
            chart
                .configure_mesh()
                .x_labels(labels.len())
                .x_label_formatter(&x_fmt)
                .x_desc("store-buffer bound")
                .y_desc("seconds")
                .draw()
                .map_err(|e| err(&e))?;
            self.draw_models(&mut chart, &x_of, |r| r.seconds).map_err(|e| err(&e))?;
        }
        root.present().map_err(|e| err(&e))?;
        Ok(())
    }

    /// Every model's line and markers in one panel, `value` of each row
    /// against its bound column(s), and the legend.
    fn draw_models<'a, DB, Y>(
        &self,
        chart: &mut plotters::chart::ChartContext<
            'a,
            DB,
            plotters::coord::cartesian::Cartesian2d<plotters::coord::ranged1d::SegmentedCoord<plotters::coord::types::RangedCoordi32>, Y>,
        >,
        x_of: &dyn Fn(&Row) -> Vec<i32>,
        value: fn(&Row) -> f64,
    ) -> Result<(), plotters::drawing::DrawingAreaErrorKind<DB::ErrorType>>
    where
        DB: plotters::prelude::DrawingBackend + 'a,
        Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    {
        use plotters::prelude::*;
        for m in self.models() {
            let pts: Vec<(SegmentValue<i32>, f64, &Row)> = self
                .rows
                .iter()
                .filter(|r| r.model == m)
                .flat_map(|r| x_of(r).into_iter().map(move |x| (SegmentValue::CenterOf(x), value(r), r)))
                .collect();
            self.draw_model(chart, m, model_colour(m), &pts)?;
        }
        chart.configure_series_labels().position(SeriesLabelPosition::UpperLeft).border_style(BLACK).background_style(WHITE.mix(0.85)).draw()
    }

    /// One model's line and markers in one panel.
    fn draw_model<'a, DB, Y>(
        &self,
        chart: &mut plotters::chart::ChartContext<
            'a,
            DB,
            plotters::coord::cartesian::Cartesian2d<plotters::coord::ranged1d::SegmentedCoord<plotters::coord::types::RangedCoordi32>, Y>,
        >,
        model: u32,
        colour: plotters::style::RGBColor,
        pts: &[(plotters::coord::ranged1d::SegmentValue<i32>, f64, &Row)],
    ) -> Result<(), plotters::drawing::DrawingAreaErrorKind<DB::ErrorType>>
    where
        DB: plotters::prelude::DrawingBackend + 'a,
        Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    {
        use plotters::prelude::*;
        let line: Vec<(SegmentValue<i32>, f64)> = pts.iter().map(|(x, y, _)| (x.clone(), *y)).collect();
        let name = if model == 0 { "sc (no buffers)".to_string() } else { model_name(model).to_string() };
        let style = colour.stroke_width(2);
        if model == 0 {
            chart.draw_series(DashedLineSeries::new(line, 6, 4, style))?
        } else {
            chart.draw_series(LineSeries::new(line, style))?
        }
        .label(name)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
        chart.draw_series(pts.iter().map(|(x, y, r)| -> DynElement<DB, (SegmentValue<i32>, f64)> {
            match r.verdict.verdict {
                "VIOLATION" => Circle::new((x.clone(), *y), 5, colour.filled()).into_dyn(),
                "SAFE" => Circle::new((x.clone(), *y), 5, colour.stroke_width(2)).into_dyn(),
                _ => Cross::new((x.clone(), *y), 5, colour.stroke_width(2)).into_dyn(),
            }
        }))?;
        Ok(())
    }
}

/// The colour of one model's line and markers.
fn model_colour(model: u32) -> plotters::style::RGBColor {
    use plotters::style::RGBColor;
    match model {
        0 => RGBColor(0x44, 0x44, 0x44),
        1 => RGBColor(0x1f, 0x77, 0xb4),
        _ => RGBColor(0xd6, 0x27, 0x28),
    }
}
